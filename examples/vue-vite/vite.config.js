// After `npm run build` (the examples import the package by name): `npx vite examples/vue-vite` with the
// Express example running (`npx tsx examples/express/main.ts`): the page on http://localhost:5173,
// /auth and /api forwarded to port 3000, and the worker served by latchkey/vite.
import { defineConfig } from 'vite'
import { latchkey } from 'latchkey/vite'

export default defineConfig({
  plugins: [latchkey()],
  server: { proxy: { '/auth': 'http://localhost:3000', '/api': 'http://localhost:3000' } },
})
