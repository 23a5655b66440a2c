/** The seed's endpoint table, and matching a request to it. */
import { createAccount, listAccounts, putAccount, whoami } from './account-routes.js';
import { followUp, setActivation, startRun } from './agents.js';
import type { EndpointKind } from './auth.js';
import type { Handler } from './context.js';
import { exportSavedObjects } from './export-fixtures.js';
import { getFeedback, submitFeedback } from './feedback.js';
import { getStatus } from './long-poll.js';

interface Route {
  method: string;
  segments: string[];
  kind: EndpointKind;
  handler: Handler;
  /** Served only without a trailing slash (the vendor's spec paths under a prefix). */
  exact: boolean;
}

/** A matched route with its path parameters. */
export interface RouteMatch {
  kind: EndpointKind;
  handler: Handler;
  params: Record<string, string>;
}

function route(method: string, path: string, kind: EndpointKind, handler: Handler, exact = false): Route {
  return { method, segments: path.split('/').filter(Boolean), kind, handler, exact };
}

/**
 * Every endpoint of the seed. Literal segments come before parameters (enable, disable and
 * feedback before a session id). Account-management and export paths carry no version prefix in
 * the seed; the vendor's published spec shows them under /v1, so a prefix can serve them there too.
 * Without the prefix a trailing slash is ignored (the seed writes the listing `…/time-based-accounts/`
 * and creation without the slash, on the same collection). Under the prefix the paths are the
 * spec's, matched exactly as a server that follows the spec does: `/v1/…/time-based-accounts/`
 * is a 404, `/v1/…/time-based-accounts` the listing.
 */
export function buildRoutes(accountPathPrefix?: string): Route[] {
  const agent = '/v2/ai-agent/:agentId';
  const routes = [
    route('POST', `${agent}/enable`, 'agent', setActivation(true)),
    route('POST', `${agent}/disable`, 'agent', setActivation(false)),
    route('POST', `${agent}/feedback`, 'agent', submitFeedback),
    route('GET', `${agent}/feedback/:sessionId`, 'agent', getFeedback),
    route('POST', agent, 'agent', startRun),
    route('GET', `${agent}/:sessionId`, 'agent', getStatus),
    route('POST', `${agent}/:sessionId`, 'agent', followUp),
    route('GET', '/v2/whoami', 'identity', whoami),
  ];
  const prefixes = [''];
  if (accountPathPrefix) prefixes.push(`/${accountPathPrefix.replace(/^\/+|\/+$/g, '')}`);
  for (const prefix of prefixes) {
    const accounts = `${prefix}/account-management/time-based-accounts`;
    const exact = prefix !== '';
    routes.push(
      route('POST', accounts, 'accounts', createAccount, exact),
      route('GET', accounts, 'accounts', listAccounts, exact),
      route('PUT', `${accounts}/:accountId`, 'accounts', putAccount, exact),
      route('POST', `${prefix}/kibana/export`, 'export', exportSavedObjects, exact),
    );
  }
  return routes;
}

/** The route serving method and path (a trailing slash is ignored unless the route is exact), or undefined. */
export function matchRoute(routes: Route[], method: string, path: string): RouteMatch | undefined {
  const parts = path.split('/').filter(Boolean);
  if (parts.some((p) => p === '.' || p === '..')) return undefined;
  const trailingSlash = path.length > 1 && path.endsWith('/');
  for (const r of routes) {
    if (r.method !== method || r.segments.length !== parts.length) continue;
    if (r.exact && trailingSlash) continue;
    const params: Record<string, string> = {};
    const matched = r.segments.every((segment, i) => {
      const part = parts[i] ?? '';
      if (!segment.startsWith(':')) return segment === part;
      params[segment.slice(1)] = safeDecode(part);
      return true;
    });
    if (matched) return { kind: r.kind, handler: r.handler, params };
  }
  return undefined;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
