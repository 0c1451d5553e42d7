// The floor: a bare `node` that reads one line and answers it with a fixed initialize result.
// Whatever a real server does on top of starting Node and reading stdin is measured against this.
let seen = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  seen += chunk;
  const newline = seen.indexOf('\n');
  if (newline === -1) return;
  const { id } = JSON.parse(seen.slice(0, newline));
  seen = seen.slice(newline + 1);
  process.stdout.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'bare', version: '1.0.0' },
      },
    })}\n`,
  );
});
