/** The adapter's methods as the password feature uses them (checked at start-up: options.ts). */
import type { Adapter } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import type { passwordMethods } from './options.js'

export type PasswordStore = Required<Pick<Adapter, (typeof passwordMethods)[number]>>

export const passwordStore = (ctx: Context) => ctx.config.adapter as PasswordStore
