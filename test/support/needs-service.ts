/**
 * "This suite needs service X": the variable's value when it is set. When it is not, under CI
 * (`CI=true`) the file fails, since a run that silently skips its PostgreSQL or Redis suites is no
 * proof; locally a loud banner says what did NOT run. A file whose every test needs the service
 * is left out of a local run by vitest.config.ts (vitest refuses a file without tests), with the
 * same banner.
 */

export function needsService(variable: string, what: string, example: string, run: string): string | undefined {
  const value = process.env[variable]
  if (value) return value
  const fix = `${variable}=${example} npx vitest run ${run}`
  if (process.env.CI === 'true') throw new Error(`${variable} is not set, and under CI=true the ${what} must run. Set it, e.g. ${fix}`)
  console.warn(missingServiceBanner(variable, `the ${what} did NOT run`, fix))
  return undefined
}

/** The banner for a suite that did not run: hard to miss in a test run's output. */
export function missingServiceBanner(variable: string, what: string, fix: string): string {
  return ['', '#'.repeat(78), `#  ${variable} is not set: ${what}.`, '#  To run it:', `#    ${fix}`, '#'.repeat(78), ''].join('\n')
}
