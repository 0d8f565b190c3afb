"""What the two laws of the Americana pack truly share.

Both Lei nº 4.419/2006 (fretamento) and Lei nº 4.515/2007 (transporte escolar) fix
amounts, count periods from date to date, judge repeat offences from earlier
infractions, limit the age of vehicles and let an appeal be decided by one form; the
code of that, and what every computation reads, is here, once, as ``schemas/comum.json``
holds the schema definitions both laws' forms share. What belongs to one law is in
:mod:`lavra_americana.fretamento` or :mod:`lavra_americana.transporte_escolar`.
"""
