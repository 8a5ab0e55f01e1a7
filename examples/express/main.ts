/** `npx tsx examples/express/main.ts`: the example on http://localhost:3000. */
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
createApp().listen(port, () => console.log(`Express example on http://localhost:${port}`))
