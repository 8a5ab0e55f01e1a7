/**
 * One IndexedDB database holding one object store, opened on first use and let go whenever
 * something else wants it gone: the site's data cleared from a page (`deleteDatabase`), or the
 * browser ending the connection (Safari's purge of a site unvisited for 7 days, storage pressure).
 * An open connection would hold such a delete back for as long as this page or worker lives; so
 * it is closed on `versionchange` and the next use opens the database again, empty if it was
 * deleted.
 */
import { openDB, type IDBPDatabase } from 'idb'

export function openStore(name: string, store: string): () => Promise<IDBPDatabase> {
  let db: Promise<IDBPDatabase> | undefined
  const open = (): Promise<IDBPDatabase> =>
    (db ??= openDB(name, 1, {
      upgrade: (d) => void d.createObjectStore(store),
      blocking: (_current, _blocked, event) => {
        ;(event.target as IDBDatabase).close()
        db = undefined
      },
      terminated: () => void (db = undefined),
    }).catch((e) => {
      db = undefined
      throw e
    }))
  return open
}

/** Whether `name` holds any record in `store`, without reading one (a device key stays unread). */
export async function holdsAny(name: string, store: string): Promise<boolean> {
  const db = await openStore(name, store)()
  try {
    return (await db.count(store)) > 0
  } finally {
    db.close()
  }
}
