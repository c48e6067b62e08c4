"""Rules at a tap: routes.py holds /rules and /rules/<ID>, the texts' check at start and the `rule_links`
filter through which every screen cites a rule. Templates: templates/rules/."""
