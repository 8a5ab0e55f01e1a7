/** The Demo IdP's two users (its own module, so the demo server can list them without loading oidc-provider). */
export interface DemoUser {
  /** The `sub` claim. */
  id: string
  email: string
  password: string
  name: string
  picture: string
}

export const demoUsers: DemoUser[] = [
  { id: 'alice', email: 'alice@example.com', password: 'alice-password', name: 'Alice Example', picture: 'https://example.com/alice.png' },
  { id: 'bob', email: 'bob@example.com', password: 'bob-password', name: 'Bob Example', picture: 'https://example.com/bob.png' },
]
