/** The agent service client: the public surface of agent-api/, listed explicitly. */

export {
  type AccountBudgets,
  createAccountBudgets,
} from '../budget/account-budgets.js';
export type { AccountSlotLeases } from '../budget/account-share.js';
export {
  type BudgetSlot,
  createRequestBudget,
  type RequestBudget,
  type RequestKind,
} from '../budget/request-budget.js';
export {
  type CompleteSubAccount,
  type CreatedSubAccount,
  DEFAULT_RETENTION_DAYS,
  fitsInt32,
  INT32_MAX,
  isComplete,
  isEmailAddress,
  missingMembers,
  type NewSubAccount,
  newAccountProblems,
  RESPONSE_ONLY_FIELDS,
  type SubAccount,
  type SubAccountUpdate,
} from './accounts.js';
export type { AgentActivation } from './agent.js';
export type { RequestInfo } from './attempts.js';
export type { AgentCallOptions } from './call-context.js';
export {
  AgentApiError,
  AgentApiErrorCode,
  type AgentApiErrorDetails,
  EmptyAnswerError,
  InvalidResponseError,
  isAgentApiError,
  parseRegionMismatch,
  RedirectRefusedError,
  RegionMismatchError,
} from './errors.js';
export {
  type ExportResult,
  SAVED_OBJECT_TYPES,
  type SavedObjectType,
} from './export.js';
export type { FeedbackRecord } from './feedback.js';
export { type Identity, type IdentityProblem, identityProblem } from './identity.js';
export { type AgentApi, type AgentApiOptions, createAgentApi } from './service-http.js';
export { AgentServiceStartupError, checkAgentService } from './startup-check.js';
