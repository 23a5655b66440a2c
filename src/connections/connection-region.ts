import { isLoopbackHost, normaliseBaseUrl } from '../config/load-config.js';

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

/** The address as AGENT_API_URL takes it, or its problem (DESIGN "Service addresses"). */
export function addressOf(address: string, allowedHosts: readonly string[] = []) {
  const shown = address.slice(0, 80);
  if (address === '') return { problem: 'the region address is empty' };
  if (/\s/.test(address)) return { problem: `“${shown}” is not a URL or host name (it has spaces)` };
  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(address);
  } catch {
    return { problem: `“${shown}” is not a URL or host name (like api-eu.logz.io)` };
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `“${shown}” is not an http(s) address` };
  }
  if (!url.hostname.includes('.') && !isLoopbackHost(url.hostname)) {
    return { problem: `“${shown}” is not a full host name (like api-eu.logz.io)` };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { problem: `${url.origin} would carry the token in clear text: use https://` };
  }
  if (url.username !== '' || url.password !== '') {
    return { problem: `“${url.host}”: give the address without a user name or password` };
  }
  if (!isAllowedServiceHost(url.hostname, allowedHosts)) {
    return {
      problem: `${url.hostname} is not one of the agent service's regional API hosts (${Object.keys(REGION_HOSTS).join(', ')}); an operator can allow another host with CONNECTION_ALLOWED_HOSTS`,
    };
  }
  return baseUrl;
}
