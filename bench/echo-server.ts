import Fastify from 'fastify';

/** The baseline: a bare Fastify JSON echo, measured in the same run as the real server. */
const app = Fastify({ logger: false });
app.post('/echo', async (request) => request.body);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
