/**
 * `npm test`: the typecheck, the import rules, then each test tier (vitest.config.ts's projects),
 * one after the other, and the time each took. A vitest run per tier, rather than one run, gives
 * each tier a wall time of its own and lets a tier fail without hiding the next one's results.
 * The typecheck and the import rules stop the run when they fail, as before.
 *
 *   npm test                     everything
 *   npm test -- test/server      every tier, only the files matching the filter
 *
 * With TIER_TIMES=<file>, the times are appended to that file too (.ci/run prints them).
 */
import { spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { tierNames } from '../test/support/tiers.js'

const filters = process.argv.slice(2)
// Each tier also writes Vitest's JSON report, so the summary at the end names what failed: on CI
// only the end of the output may be kept.
const reports = mkdtempSync(join(tmpdir(), 'latchkey-tiers-'))

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

const steps: { name: string; command: string; args: string[]; gate?: boolean }[] = [
  { name: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'], gate: true },
  { name: 'layers', command: 'npm', args: ['run', '--silent', 'layers'], gate: true },
  ...tierNames.map((tier) => ({
    name: tier,
    command: 'npx',
    args: ['vitest', 'run', '--project', tier, '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, `${tier}.json`)}`, ...filters],
  })),
]

interface JsonReport {
  testResults?: { name: string; status: string; message?: string; assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[] }[]
}

/** Each failed test of a tier as `file > test: first line of the error`; a file that failed to load counts too. */
function failuresOf(tier: string): string[] {
  let report: JsonReport
  try {
    report = JSON.parse(readFileSync(join(reports, `${tier}.json`), 'utf8')) as JsonReport
  } catch {
    return []
  }
  // Vitest's JSON report keeps only this of a test that ran past its timeout.
  const firstLine = (text = '') => {
    const line = text.split('\n').find((line) => line.trim())?.trim().slice(0, 240) ?? ''
    return line === 'Error: STACK_TRACE_ERROR' ? 'ran past its timeout (the output above says where it stood)' : line
  }
  return (report.testResults ?? []).flatMap((file) => {
    const name = relative(process.cwd(), file.name)
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed')
    if (failed.length) return failed.map((test) => `${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`)
    return file.status === 'failed' ? [`${name}: ${firstLine(file.message)}`] : []
  })
}

const times: { name: string; seconds: number; ok: boolean }[] = []
const failures: string[] = []
for (const step of steps) {
  console.log(`\n--- ${step.name}`)
  const started = performance.now()
  const ok = (await run(step.command, step.args)) === 0
  times.push({ name: step.name, seconds: (performance.now() - started) / 1000, ok })
  if (process.env.TIER_TIMES) appendFileSync(process.env.TIER_TIMES, `${step.name}\t${times.at(-1)!.seconds.toFixed(1)}\t${ok ? 'ok' : 'FAILED'}\n`)
  if (!ok) failures.push(...failuresOf(step.name).map((line) => `${step.name}: ${line}`))
  if (!ok && step.gate) break
}

if (failures.length) {
  console.log('\n--- failed')
  for (const line of failures) console.log(line)
}

console.log('\n--- npm test, by tier')
for (const { name, seconds, ok } of times) console.log(`${name.padEnd(10)} ${seconds.toFixed(1).padStart(7)} s  ${ok ? 'ok' : 'FAILED'}`)
const total = times.reduce((sum, { seconds }) => sum + seconds, 0)
console.log(`${'total'.padEnd(10)} ${total.toFixed(1).padStart(7)} s`)
process.exit(times.every(({ ok }) => ok) && times.length === steps.length ? 0 : 1)
