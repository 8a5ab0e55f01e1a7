/** Rate limits: resolved once per instance from `rateLimit`; the features that count call `enforceRateLimit`. */
import type { Feature } from '../../kernel/feature.js'
import { resolveRateLimit } from './config.js'

export const rateLimit: Feature = {
  name: 'rate-limit',
  configure(config, resolved) {
    resolved.rateLimit = resolveRateLimit(config.rateLimit, config.adapter)
  },
}
