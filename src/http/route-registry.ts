/**
 * Which routes the app registered, and which of them are billable: a route that charges its caller (credits, or
 * one pay-per-request payment) says so with `config: { billable: true }`. The shared route tests
 * (test/billable/) run on every route flagged here, and a test fails when a flagged route is not covered.
 */
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route charges its caller: covered by the shared route tests of billable routes. */
    billable?: boolean;
  }
}

export interface RegisteredRoute {
  method: string;
  /** The route's URL pattern as registered (`/v2/brands/ticker/:identifier`, `/v2/brands/*`). */
  url: string;
  billable: boolean;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records every route registered on `app` from now on; call before the routes are registered. */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registries.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, billable: route.config?.billable === true });
  });
}

/** The routes recorded on `app` (empty when recordRoutes was not called on it). */
export function routesOf(app: FastifyInstance): readonly RegisteredRoute[] {
  return registries.get(app) ?? [];
}
