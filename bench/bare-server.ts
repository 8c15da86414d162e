/**
 * The baseline: a bare Fastify route that answers the exact bytes Brandbase answered for the benchmarked brand.
 * Run as its own process so it gets the same footing as the real server.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [bodyFile, port] = process.argv.slice(2);
if (!bodyFile || !port) throw new Error('usage: bare-server.ts <body.json> <port>');
const body = readFileSync(bodyFile);
const app = Fastify();
app.get('/v2/brands/*', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
