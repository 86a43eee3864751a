// A load-balancing worker in Node (node:http only): an HTTP server on PORT with GET /ping.
// compute-contract mock --worker my-lb='exec:node examples/lb-workers/server.mjs'
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 80);
const server = createServer((req, res) => {
  if (req.url === '/ping') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"healthy"}');
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-worker': 'node' });
    res.end(JSON.stringify({ pid: process.pid, method: req.method, url: req.url, bytes: Buffer.concat(chunks).length }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stderr.write(`listening on ${port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
