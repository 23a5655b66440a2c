import { isLoopbackHost } from '../config/load-config.js';

/** The vendor's regional API hosts: whoami names no region (DESIGN "Facts about the real service"). */
const REGION_HOSTS: Record<string, string> = {
  'api.logz.io': 'us',
  'api-eu.logz.io': 'eu',
  'api-uk.logz.io': 'uk',
  'api-au.logz.io': 'au',
  'api-ca.logz.io': 'ca',
  'api-nl.logz.io': 'nl',
  'api-wa.logz.io': 'wa',
};

/** The region a connection's address points at, or its host as itself. */
export function regionOf(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return baseUrl;
  const host = new URL(baseUrl).host;
  const region = REGION_HOSTS[host.toLowerCase()];
  return region ? `${region} (${host})` : host;
}

/** A regional host, loopback or CONNECTION_ALLOWED_HOSTS: an admin's form is no way into the network. */
export function isAllowedServiceHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return Object.hasOwn(REGION_HOSTS, host) || isLoopbackHost(host) || allowedHosts.includes(host);
}

/** The regional hosts, for the sentence that refuses another. */
export const REGIONAL_API_HOSTS: readonly string[] = Object.keys(REGION_HOSTS);
