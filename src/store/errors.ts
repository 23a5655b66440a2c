/** Codes carried by store errors, so callers and logs can branch without parsing messages. */
export enum StoreErrorCode {
  ConnectFailed = 'STORE_CONNECT_FAILED',
  Closed = 'STORE_CLOSED',
}

/** Redis could not be reached (refused, unreachable, or no answer within the connect timeout). */
export class StoreConnectError extends Error {
  readonly code = StoreErrorCode.ConnectFailed;
  /** `host:port` only: a Redis URL may carry a password. */
  readonly address: string;
  /** The variable to fix (REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES, REDIS_PASSWORD), if known. */
  readonly variable: string | undefined;

  constructor(address: string, detail: string, options?: { cause?: unknown; variable?: string }) {
    const named = options?.variable ? `${options.variable}: ` : '';
    super(`${named}Redis at ${address} is not reachable: ${detail}`, options);
    this.name = 'StoreConnectError';
    this.address = address;
    this.variable = options?.variable;
  }
}

/** The store was used after `close()`. */
export class StoreClosedError extends Error {
  readonly code = StoreErrorCode.Closed;

  constructor() {
    super('The conversation store is closed');
    this.name = 'StoreClosedError';
  }
}
