/** Moving daily capacity between sub accounts: a saga over the account API (DESIGN, `/agent capacity move`). */
export { type CapacityMoveLock, type CapacityMoveResult, moveCapacity } from './capacity-move.js';
export {
  type AccountCapacityState,
  CapacityMoveError,
  CapacityMoveReason,
  isCapacityMoveError,
} from './capacity-move-error.js';
export { buildUpdateBody, planMove, resolveAccount, roundGb } from './capacity-plan.js';
