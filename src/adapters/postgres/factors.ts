/**
 * The SQL adapter's second factors: one `factors` row per authenticator app and one
 * `recovery_codes` row per unused code hash (migration 11). A TOTP step is taken by one
 * compare-and-set UPDATE and a recovery code by one DELETE, so of servers racing on the same
 * code exactly one gets a row back.
 */
import { AdapterError } from '../errors.js'
import { requireFactor, requireRecoveryCodes, requireStep } from '../factors.js'
import type { CompleteAdapter } from '../types.js'
import { requireDate, requireString } from '../validate.js'
import type { Queryable, Rows } from './queryable.js'
import { FACTOR_COLUMNS, toFactor, type FactorRow } from './rows.js'
import { unknownUser, write } from './sql-errors.js'

type FactorMethods = Pick<
  CompleteAdapter,
  'createFactor' | 'listFactorsByUserId' | 'confirmFactor' | 'useFactorStep' | 'deleteFactor' | 'replaceRecoveryCodes' | 'useRecoveryCode' | 'countRecoveryCodes'
>

export function factorMethods(rows: Rows, db: Queryable): FactorMethods {
  return {
    async createFactor(factor) {
      const method = 'createFactor'
      const f = requireFactor(method, factor)
      const [row] = await write(
        () =>
          rows<FactorRow>(
            `INSERT INTO factors (${FACTOR_COLUMNS})
             VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz, $7::timestamptz, $8::bigint)
             RETURNING ${FACTOR_COLUMNS}`,
            [f.id, f.userId, f.type, f.secret, f.label, f.confirmedAt, f.createdAt, f.lastUsedStep],
          ),
        {
          unique: () => new AdapterError('DuplicateFactor', `${method}: expected a new factor id, but "${f.id}" is already in use`),
          foreignKey: unknownUser(method, f.userId),
        },
      )
      return toFactor(row!)
    },

    async listFactorsByUserId(userId) {
      const list = await rows<FactorRow>(`SELECT ${FACTOR_COLUMNS} FROM factors WHERE user_id = $1::text ORDER BY created_at, id`, [userId])
      return list.map(toFactor)
    },

    async confirmFactor(id, confirmedAt) {
      const at = requireDate('confirmFactor', 'confirmedAt', confirmedAt)
      const [row] = await rows<FactorRow>(`UPDATE factors SET confirmed_at = $2::timestamptz WHERE id = $1::text RETURNING ${FACTOR_COLUMNS}`, [id, at])
      return row ? toFactor(row) : null
    },

    async useFactorStep(id, step) {
      const checked = requireStep('useFactorStep', 'step', step)
      // A second UPDATE of the same row waits for the first, then re-reads last_used_step and matches nothing.
      const taken = await rows(
        `UPDATE factors SET last_used_step = $2::bigint WHERE id = $1::text AND (last_used_step IS NULL OR last_used_step < $2::bigint) RETURNING 1`,
        [id, checked],
      )
      return taken.length === 1
    },

    async deleteFactor(id) {
      const [row] = await rows<FactorRow>(`DELETE FROM factors WHERE id = $1::text RETURNING ${FACTOR_COLUMNS}`, [id])
      return row ? toFactor(row) : null
    },

    async replaceRecoveryCodes(userId, codes) {
      const method = 'replaceRecoveryCodes'
      const owner = requireString(method, 'userId', userId)
      const checked = requireRecoveryCodes(method, codes)
      const replace = async (q: Queryable) => {
        await q.query(`DELETE FROM recovery_codes WHERE user_id = $1::text`, [owner])
        if (checked.length === 0) return
        // One fixed statement for any number of codes: the set travels as JSON text, cast by the
        // server (a driver that sees a jsonb parameter would encode the string once more).
        await q.query(`INSERT INTO recovery_codes (user_id, code) SELECT $1::text, value FROM jsonb_array_elements_text($2::text::jsonb)`, [
          owner,
          JSON.stringify(checked),
        ])
      }
      await write(
        () =>
          db.transaction
            ? db.transaction(async (tx) => {
                // Locking the user's row queues concurrent replacements, so exactly one set survives
                // (NO KEY: the user's sessions and accounts can still be written meanwhile).
                await tx.query(`SELECT id FROM users WHERE id = $1::text FOR NO KEY UPDATE`, [owner])
                await replace(tx)
              })
            : // A Queryable of your own without transactions: the two statements run apart. Two
              // replacements at once may then leave both sets (each shown to this user), and a
              // failure between them leaves none (the user can regenerate): never a code not issued.
              replace(db),
        { foreignKey: unknownUser(method, owner) },
      )
    },

    async useRecoveryCode(userId, code) {
      const used = await rows(`DELETE FROM recovery_codes WHERE user_id = $1::text AND code = $2::text RETURNING 1`, [userId, code])
      return used.length === 1
    },

    async countRecoveryCodes(userId) {
      const [row] = await rows<{ n: number | string | bigint }>(`SELECT count(*) AS n FROM recovery_codes WHERE user_id = $1::text`, [userId])
      return Number(row?.n ?? 0)
    },
  }
}
