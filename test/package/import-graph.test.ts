/**
 * The import graph of src/, type-only imports included: no module is part of a circle, and
 * latchkey/server (src/server) reaches nothing of latchkey/node (src/node) nor node's request
 * shapes, so the Web-only entry stays Web-only in its types too.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const src = resolve(import.meta.dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** Each module of src/ and the modules of src/ it imports (static, dynamic and type-only, and re-exports). */
function importGraph(): Map<string, string[]> {
  const files = new Set(sourceFiles(src))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => {
        const base = resolve(dirname(file), specifier).replace(/\.js$/, '')
        return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => files.has(candidate))
      })
      .filter((target): target is string => target !== undefined)
    graph.set(file, targets)
  }
  return graph
}

/** The strongly connected components of more than one module (or a module importing itself): Tarjan's. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.map((file) => relative(src, file)).sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the import graph of src/', () => {
  const graph = importGraph()

  test('has no import circle, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(circles(graph)).toEqual([])
  })

  test('src/server imports nothing from src/node, and names no node request or response', () => {
    const server = [...graph.keys()].filter((file) => relative(src, file).startsWith('server/'))
    const intoNode = server.flatMap((file) => graph.get(file)!.filter((target) => relative(src, target).startsWith('node/')).map((target) => `${relative(src, file)} -> ${relative(src, target)}`))
    expect(intoNode).toEqual([])
    const nodeShapes = server.filter((file) => /\b(?:IncomingMessage|ServerResponse|NodeRequestLike|NodeResponseLike)\b|from ['"]node:http['"]/.test(readFileSync(file, 'utf8')))
    expect(nodeShapes.map((file) => relative(src, file))).toEqual([])
  })
})
