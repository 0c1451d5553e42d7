process.stdout.write('demo\n');
