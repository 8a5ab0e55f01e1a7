/**
 * Cloudflare Workers: the Hono example as a module worker (docs/guides/hono.md). test/runtimes
 * runs this file under workerd, with the compatibility flags the guide's wrangler.toml sets.
 */
import type { Hono } from 'hono'
import { createApp } from './app.js'

let app: Hono | undefined

export default {
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> {
    // Built on the first request: a Worker may not make random values while it starts.
    return (app ??= createApp()).fetch(request, env)
  },
}
