/**
 * The shared types in one import: the contract (contract.ts: provider configurations, the adapter
 * and its records, as shared/seed/contract.md spells them), the wire types (wire.ts: what the
 * server answers) and the configuration (config.ts: `AuthConfig` and what it holds).
 */
export type * from './contract.js'
export { isDate } from './contract.js'
export type * from './wire.js'
export type * from './config.js'
