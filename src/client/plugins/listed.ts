/** A list the signed-in user manages (/sessions, /accounts): GET it, or POST an action and get what is left. */
import type { ClientKernel } from '../plugin.js'

export function listed<T>({ get, send, settle }: ClientKernel, path: string) {
  const key = path.slice(1)
  return {
    list: async (): Promise<T[]> => (await get<Record<string, T[]>>(path))[key]!,
    act: async (fields: Record<string, string>): Promise<T[]> => {
      const { data, response } = await send<Record<string, T[]>>(path, fields)
      await settle(path, response)
      return data[key]!
    },
  }
}
