/** GET /providers: the `AppProvider` list. */
import type { Context } from '../kernel/context.js'
import { appProviders } from './providers-list.js'
import { json, type Reply } from '../kernel/respond.js'

export async function getProviders(ctx: Context): Promise<Reply> {
  return json(ctx, appProviders(ctx))
}
