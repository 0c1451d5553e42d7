#!/usr/bin/env node
process.stdout.write('palisade: no commands yet\n');
