import type { z } from 'zod';
import { type AgentApiErrorDetails, InvalidResponseError, regionMismatchIn } from './errors.js';

/** A 2xx response as the transport hands it over. */
export interface SuccessResponse {
  status: number;
  text: string;
  method: string;
  path: string;
}

/** zod issues as `field: rule` lines; the root is written `(body)`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const field = issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.');
    return `${field}: ${issue.message}`;
  });
}

/**
 * Parses a 2xx body against its schema. A body that is not JSON or breaks the schema is an
 * InvalidResponseError — unless it carries the region-mismatch sentence, whose status code the
 * service does not document (it could arrive as a 200 text body).
 */
export function parseBody<S extends z.ZodType>(response: SuccessResponse, schema: S): z.output<S> {
  const details: AgentApiErrorDetails = {
    status: response.status,
    method: response.method,
    path: response.path,
  };
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch (cause) {
    throw (
      regionMismatchIn(response.text, details) ??
      new InvalidResponseError(['(body): not JSON'], { ...details, cause })
    );
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  throw (
    regionMismatchIn(response.text, details) ??
    new InvalidResponseError(describeIssues(result.error.issues), details)
  );
}
