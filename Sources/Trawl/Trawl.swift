// The umbrella module for embedders: `import Trawl` brings in every layer of the engine.
@_exported import TrawlText
@_exported import TrawlNGram
@_exported import TrawlMatch
@_exported import TrawlFiles
@_exported import TrawlFind
@_exported import TrawlIndex
@_exported import TrawlCatalog
@_exported import TrawlSearchable
