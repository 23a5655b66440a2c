/** The agent service client: the public surface of agent-api/, listed explicitly. */

export {
  type AccountBudgets,
  type AccountBudgetsOptions,
  createAccountBudgets,
} from '../budget/account-budgets.js';
export type { AccountSlotLeases } from '../budget/account-share.js';
export {
  type AccountShare,
  type BudgetSlot,
  createRequestBudget,
  type RequestBudget,
  type RequestBudgetOptions,
  type RequestKind,
} from '../budget/request-budget.js';
export {
  fitsInt32,
  INT32_MAX,
  isEmailAddress,
  type NewAccountValues,
  newAccountProblems,
} from './account-checks.js';
export { type CompleteSubAccount, isComplete, missingMembers } from './account-completeness.js';
export {
  type CreatedSubAccount,
  DEFAULT_RETENTION_DAYS,
  type NewSubAccount,
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
  type ExportCollection,
  type ExportResult,
  SAVED_OBJECT_TYPES,
  type SavedObjectType,
} from './export.js';
export type { FeedbackRecord } from './feedback.js';
export { type Identity, type IdentityProblem, identityProblem } from './identity.js';
export { type AgentApi, type AgentApiOptions, createAgentApi } from './service-http.js';
export { AgentServiceStartupError, checkAgentService } from './startup-check.js';
export { messageAsMarkdown } from './structured-output.js';
