/** The agent service client: the public surface of agent-api/, listed explicitly. */

export type { CreatedSubAccount, NewSubAccount, SubAccount, SubAccountUpdate } from './accounts.js';
export type { AgentActivation } from './agent.js';
export type { AgentCallOptions } from './call-context.js';
export {
  type AccountCapacityChange,
  type CapacityMoveLock,
  type CapacityMoveRequest,
  type CapacityMoveResult,
  moveCapacity,
} from './capacity-move.js';
export {
  type AccountLabel,
  CapacityMoveError,
  type CapacityMoveErrorDetails,
  CapacityMoveReason,
  isCapacityMoveError,
} from './capacity-move-error.js';
export { buildUpdateBody, planMove, resolveAccount, roundGb } from './capacity-plan.js';
export { type AgentApi, type AgentApiOptions, createAgentApi } from './client.js';
export {
  AgentApiError,
  AgentApiErrorCode,
  type AgentApiErrorDetails,
  InvalidResponseError,
  isAgentApiError,
  parseRegionMismatch,
  RegionMismatchError,
} from './errors.js';
export {
  type ExportCollection,
  type ExportResult,
  SAVED_OBJECT_TYPES,
  type SavedObjectType,
} from './export.js';
export type { FeedbackRecord } from './feedback.js';
export type { Identity } from './identity.js';
export {
  createRequestBudget,
  type RequestBudget,
  type RequestBudgetOptions,
  type RequestKind,
} from './request-budget.js';
export type { RequestInfo } from './transport.js';
