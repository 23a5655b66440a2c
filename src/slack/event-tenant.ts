import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { InstallationRef, Tenancy, Tenant } from '../conversation/tenancy.js';

/**
 * Puts each event's tenant on Bolt's context where it enters (DESIGN "One installation, one tenant"):
 * listeners hand `tenantOf(context)` along, so nothing downstream looks the installation up itself.
 */
export function tenantMiddleware(
  tenancy: Tenancy,
  /** The installation Bolt authorized the event for (OAuth), or `auth.test`'s (one workspace). */
  installationOf: (context: Context) => InstallationRef | undefined,
): Middleware<AnyMiddlewareArgs> {
  return async ({ context, next }) => {
    const installation = installationOf(context);
    if (installation) context.tenant = tenancy.of(installation);
    await next();
  };
}

/** Raised when a listener runs without the tenant the middleware sets: a wiring fault. */
export class NoTenantError extends Error {
  readonly code = 'no_tenant';
  constructor() {
    super('the event carries no installation tenant (tenantMiddleware did not run)');
    this.name = 'NoTenantError';
  }
}

/** The tenant the middleware put on this event's context. */
export function tenantOf(context: Context): Tenant {
  const tenant = context.tenant as Tenant | undefined;
  if (!tenant) throw new NoTenantError();
  return tenant;
}
