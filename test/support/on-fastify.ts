/** Setup of the `fastify` Jest project: every test app of the run is built on @nestjs/platform-fastify. */
process.env.MCP_TEST_ADAPTER = 'fastify';
