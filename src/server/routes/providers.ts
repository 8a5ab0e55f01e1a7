/** GET /providers: the `AppProvider` list. */
import type { Context } from '../context.js'
import { appProviders } from '../providers-list.js'
import { json, type Reply } from '../respond.js'

export async function getProviders(ctx: Context): Promise<Reply> {
  return json(ctx, appProviders(ctx))
}
