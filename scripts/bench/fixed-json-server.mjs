// A bare node:http server answering one fixed job record: the "same local server" both raw fetch and
// the client talk to in the client bench. Runs in its own process so the server's CPU does not count
// against the client; reports its port over IPC and exits when the parent disconnects.
import { createServer } from 'node:http';

const record = JSON.stringify({ id: 'job-1-u1', status: 'COMPLETED', delayTime: 10, executionTime: 20, output: { text: 'hello' } });
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(record) }).end(record);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => server.close(() => process.exit(0)));
