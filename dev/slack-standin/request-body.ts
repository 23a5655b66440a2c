import type { IncomingMessage } from 'node:http';

/** Reads the whole request body. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Parses a multipart body with the platform's own parser (the Web client uploads files this way). */
async function multipart(req: IncomingMessage, body: Buffer): Promise<FormData> {
  const request = new Request('http://standin.invalid/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body,
  });
  return request.formData();
}

/**
 * A Web API call's arguments, the way Slack reads them: query string, then a form-encoded,
 * JSON or multipart body. Form values stay strings (JSON arguments are parsed by each method).
 */
export async function parseArgs(req: IncomingMessage, body: Buffer): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = {};
  const url = new URL(req.url ?? '/', 'http://localhost');
  for (const [k, v] of url.searchParams) args[k] = v;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (body.length === 0) return args;
  if (type.includes('application/json')) {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed && typeof parsed === 'object') Object.assign(args, parsed);
  } else if (type.includes('multipart/form-data')) {
    for (const [k, v] of await multipart(req, body)) args[k] = typeof v === 'string' ? v : `[file ${v.name}]`;
  } else {
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) args[k] = v;
  }
  return args;
}

/**
 * The bytes of an upload to an upload URL: the first file part of a multipart body (what the Web
 * client sends), or the raw body.
 */
export async function uploadedBytes(req: IncomingMessage, body: Buffer): Promise<Buffer> {
  if (!(req.headers['content-type'] ?? '').toLowerCase().includes('multipart/form-data')) return body;
  for (const [, value] of await multipart(req, body)) {
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  }
  return Buffer.alloc(0);
}
