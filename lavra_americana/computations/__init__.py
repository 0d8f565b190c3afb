"""The values each form of the Americana pack computes (its ``"calculos"``).

One module per group of documents, each with a ``COMPUTATIONS`` dict (name → function
of :class:`lavra.checking.computations.ComputeInput`) and the ``IMPLEMENTED`` tuple of
the provisions it applies: :mod:`.auto_fretamento` (the auto de infração of Lei nº
4.419/2006), :mod:`.fretamento` (its other acts), :mod:`.escolar` (the school-transport
alvará), :mod:`.licencas` (the other school-transport licences), :mod:`.atos` (autos,
decisions and the edital of Lei nº 4.515/2007); :mod:`.common` holds what they read.
"""
