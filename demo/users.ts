/** The Demo IdP's two users (its own module, so the demo server can list them without loading oidc-provider). */
export interface DemoUser {
  /** The `sub` claim. */
  id: string
  email: string
  password: string
  name: string
  /** The `picture` claim: a path on the IdP (it serves the avatar), or an absolute URL. */
  picture: string
}

export const demoUsers: DemoUser[] = [
  { id: 'alice', email: 'alice@example.com', password: 'alice-password', name: 'Alice Example', picture: '/avatars/alice.svg' },
  { id: 'bob', email: 'bob@example.com', password: 'bob-password', name: 'Bob Example', picture: '/avatars/bob.svg' },
]
