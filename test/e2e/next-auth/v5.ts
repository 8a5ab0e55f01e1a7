/** The page with next-auth 5's client (installed as `next-auth-5`). */
import * as client from 'next-auth-5/react'
import { mount, type NextAuthReact } from './page.js'

mount(client as unknown as NextAuthReact)
