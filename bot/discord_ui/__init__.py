"""The discord.py front end: the bot, its commands (cogs), buttons, the Discord formatter and
the one tree error handler. The only package of the project that imports discord."""
