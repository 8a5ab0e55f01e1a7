/**
 * A live suite that cannot run says so loudly, and stands in one named test that states it did not
 * run (vitest fails a file with no tests, and a silent pass would hide the gap).
 */
import { expect, test } from 'vitest'

export function missingServiceBanner(variable: string, what: string, example: string): void {
  console.warn(
    [
      '',
      '#'.repeat(78),
      `#  ${variable} is not set: the ${what} did NOT run.`,
      '#  To run it:',
      `#    ${variable}=${example} npx vitest run test/rate-limit`,
      '#'.repeat(78),
      '',
    ].join('\n'),
  )
  test(`${what} did NOT run: ${variable} is not set`, () => {
    expect(process.env[variable] ?? '').toBe('')
  })
}
