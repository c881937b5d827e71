"""Slash commands, one cog per area: play (challenges and moves), game (its course and ending),
info (history, proof, rules, help) and referee_mod (moderators)."""
