/** The agent service client: the public surface of agent-api/, listed explicitly. */

export { createAccountBudgets } from '../budget/account-budgets.js';
export { createRequestBudget, type RequestBudget } from '../budget/request-budget.js';
export {
  type CompleteSubAccount,
  DEFAULT_RETENTION_DAYS,
  fitsInt32,
  INT32_MAX,
  isComplete,
  isEmailAddress,
  missingMembers,
  newAccountProblems,
  type SubAccount,
} from './accounts.js';
export {
  AgentApiError,
  AgentApiErrorCode,
  EmptyAnswerError,
  InvalidResponseError,
  isAgentApiError,
  RedirectRefusedError,
  RegionMismatchError,
} from './errors.js';
export { SAVED_OBJECT_TYPES, type SavedObjectType } from './export.js';
export { type Identity, type IdentityProblem, identityProblem } from './identity.js';
export { type AgentApi, type AgentApiOptions, createAgentApi } from './service-http.js';
export { checkAgentService } from './startup-check.js';
