/** The page with next-auth 4's client. */
import * as client from 'next-auth/react'
import { mount, type NextAuthReact } from './page.js'

mount(client as unknown as NextAuthReact)
