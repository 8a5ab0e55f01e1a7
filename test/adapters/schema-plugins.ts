/** The plugins whose schemas ride along in every adapter suite: their tables, methods and own cases. */
import { waitlist } from '../../examples/plugins/waitlist.js'
import { organizations } from 'latchkey/plugins/organizations'
import { oauthServerSchema } from 'latchkey/plugins/oauth-server'
import { sso } from 'latchkey/plugins/sso'

const orgs = organizations()

// sso after organizations: its connections reference the organizations' table.
export const schemaPlugins = [waitlist({ capacity: 10 }), orgs, { id: 'oauth-server', schema: oauthServerSchema }, sso({ organizations: orgs })]
