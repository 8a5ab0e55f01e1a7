/**
 * Cloudflare Workers: the Hono example as a module worker (docs/guides/hono.md), built as the
 * module loads: neither latchkey, Hono nor the memory adapter makes random values or does I/O
 * at start-up, which a Worker forbids. test/runtimes runs this file under workerd with the flags
 * of the guide's wrangler.toml: nodejs_compat puts AUTH_SECRET in process.env before it runs.
 */
import { createApp } from './app.js'

export default createApp()
