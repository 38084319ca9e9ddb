import { SetMetadata, applyDecorators, type ExecutionContext } from '@nestjs/common';

/**
 * Metadata on each of a mount's route handlers, its value what the mount's events name it. Nest copies a handler's
 * metadata onto the route callback it registers (the Fastify adapter reads its route `config` from there too),
 * which is how a mount's routes are told apart from the host's own.
 */
export const MCP_MOUNT_ROUTE = 'nest-mcp:mount-route';

/**
 * Whether a guard or interceptor is running for one of a mount's routes: for a global guard that lets MCP callers
 * through to the mount's own auth check (a JWT guard's `@Public()` escape hatch, which cannot be put on the mount's
 * controller). Reads the route handler's metadata, so it holds however the mount path is prefixed. A guard that
 * passes them leaves them to the mount's `auth` option: without one, the mount is open.
 * @publicApi
 */
export function isMountRoute(context: Pick<ExecutionContext, 'getHandler'>): boolean {
  return Reflect.getMetadata(MCP_MOUNT_ROUTE, context.getHandler()) !== undefined;
}

/** Nest's metadata key for a Fastify route's `config` (what `@RouteConfig()` of @nestjs/platform-fastify sets). */
const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';

/** Marks a handler of the mount's controller as a route of the mount named `mount`, for Express and Fastify alike. */
export const MountRoute = (mount: string): MethodDecorator =>
  applyDecorators(SetMetadata(MCP_MOUNT_ROUTE, mount), SetMetadata(FASTIFY_ROUTE_CONFIG, { [MCP_MOUNT_ROUTE]: mount }));
