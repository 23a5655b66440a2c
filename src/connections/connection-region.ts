import { isLoopbackHost } from '../config/load-config.js';

/**
 * The region a connection's address points at, for the listing and the add confirmation. The
 * service's identity endpoint names no region: the vendor's regional API hosts do (DESIGN "Facts
 * about the real service": `api.logz.io` is us, `api-eu.logz.io` eu, …); any other host is shown
 * as itself.
 */
const REGION_HOSTS: Record<string, string> = {
  'api.logz.io': 'us',
  'api-eu.logz.io': 'eu',
  'api-uk.logz.io': 'uk',
  'api-au.logz.io': 'au',
  'api-ca.logz.io': 'ca',
  'api-nl.logz.io': 'nl',
  'api-wa.logz.io': 'wa',
};

export function regionOf(baseUrl: string): string {
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
  const region = REGION_HOSTS[host.toLowerCase()];
  return region ? `${region} (${host})` : host;
}

/**
 * Whether a connection may point at `hostname` (DESIGN "Service addresses"): one of the vendor's
 * regional API hosts, loopback (tests, the sandbox), or a host the operator listed in
 * CONNECTION_ALLOWED_HOSTS. Anything else — a private or link-local address, another company's
 * host — is refused: an admin's form must not turn the bot into a way into the network.
 */
export function isAllowedServiceHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return Object.hasOwn(REGION_HOSTS, host) || isLoopbackHost(host) || allowedHosts.includes(host);
}

/** The regional hosts, for the sentence that refuses another. */
export const REGIONAL_API_HOSTS: readonly string[] = Object.keys(REGION_HOSTS);
