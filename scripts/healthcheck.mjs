// The container health check (Dockerfile HEALTHCHECK, compose.yaml): exit 0 when the bot's
// GET /healthz answers 200 on the address it listens on — HOST and PORT, as the bot reads them —
// and 1 otherwise. The slim image has no curl; Node itself asks.
const port = process.env.PORT?.trim() || '3000';
const host = process.env.HOST?.trim() || '0.0.0.0';
// A wildcard listen address is reached on loopback; an IPv6 literal needs brackets in a URL.
const target = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
const url = `http://${target.includes(':') ? `[${target}]` : target}:${port}/healthz`;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) });
  await response.body?.cancel();
  if (!response.ok) process.stderr.write(`${url} answered ${response.status}\n`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`${url}: ${error.cause?.message ?? error.message}\n`);
  process.exit(1);
}
