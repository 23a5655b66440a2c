import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { InstallationRef, Tenancy, Tenant } from '../conversation/tenancy.js';

/**
 * The installation scope of an event, command or interaction, made once where it enters (DESIGN
 * "One installation, one tenant"): a global middleware puts the tenant on Bolt's context, and each
 * listener hands `tenantOf(context)` along with the work it starts, so nothing downstream looks
 * the installation up for itself.
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
