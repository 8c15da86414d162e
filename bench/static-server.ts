/**
 * The logo CDN's baseline (bench/logo-cdn.ts): `@fastify/static` serving a folder that holds the exact bytes the
 * CDN answered, under the same path, with the same long max-age. Run as its own process so it gets the same footing
 * as the real server.
 */
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';

const [root, port] = process.argv.slice(2);
if (!root || !port) throw new Error('usage: static-server.ts <folder> <port>');
const app = Fastify();
await app.register(fastifyStatic, { root, maxAge: 7 * 86_400_000 });
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
