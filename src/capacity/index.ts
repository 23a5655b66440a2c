/** Moving daily capacity between sub accounts: a saga over the account API (DESIGN, `/agent capacity move`). */
export {
  type AccountCapacityChange,
  type CapacityMoveLock,
  type CapacityMoveRequest,
  type CapacityMoveResult,
  moveCapacity,
} from './capacity-move.js';
export {
  type AccountCandidate,
  type AccountCapacityState,
  type AccountLabel,
  CapacityMoveError,
  type CapacityMoveErrorDetails,
  CapacityMoveReason,
  type CapacityMoveStep,
  isCapacityMoveError,
  type UnknownCapacity,
} from './capacity-move-error.js';
export { buildUpdateBody, planMove, resolveAccount, roundGb } from './capacity-plan.js';
