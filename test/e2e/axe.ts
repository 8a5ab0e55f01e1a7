/** axe-core in a page (it looks inside open shadow roots): the WCAG 2.x A and AA rules, as the browser tests run them. */
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

interface Violation { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }

/** axe's WCAG 2.x A/AA rules over the whole page; each violation in one readable line per node. */
export async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath })
  const found: Violation[] = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] })
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) }))
  })
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(n.target)}\n    ${n.failureSummary?.replace(/\n/g, '\n    ')}`))
}
