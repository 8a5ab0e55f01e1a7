/** The plugins whose schemas ride along in every adapter suite: their tables, methods and own cases. */
import { waitlist } from '../../examples/plugins/waitlist.js'
import { organizations } from 'latchkey/plugins/organizations'
import { oauthServerSchema } from 'latchkey/plugins/oauth-server'
import { scim } from 'latchkey/plugins/scim'
import { sso } from 'latchkey/plugins/sso'

const orgs = organizations()

// scim and sso after organizations: their tables reference the organizations' tables.
export const schemaPlugins = [waitlist({ capacity: 10 }), orgs, scim(), { id: 'oauth-server', schema: oauthServerSchema }, sso({ organizations: orgs })]
