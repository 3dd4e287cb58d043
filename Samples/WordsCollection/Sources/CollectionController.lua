-- CollectionController: the root view controller of WordsCollection. A collection view shows
-- one cell per word of the "words" text resource, each cell as wide as its word; pinching a
-- cell zooms it and drags it along.

local LabelCell = require "LabelCell"
local PinchFlowLayout = require "PinchFlowLayout"
local UiGestureRecognizer = require "UIKit.UIGestureRecognizer"

local UICollectionViewController = objc.UICollectionViewController
local CollectionController = class.createClass("CollectionController", UICollectionViewController)

local cellIdentifier = "WordCell"
local cellHeight = 56
-- Room around the word inside its cell, in points.
local cellPadding = 28

function CollectionController:init()
    local layout = PinchFlowLayout:new()
    layout.minimumInteritemSpacing = 8
    layout.minimumLineSpacing = 8
    layout.sectionInset = { top = 20, left = 12, bottom = 20, right = 12 }
    return self:initWithCollectionViewLayout(layout)
end

function CollectionController:viewDidLoad()
    self[UICollectionViewController]:viewDidLoad()
    self.collectionView:registerClass_forCellWithReuseIdentifier(LabelCell, cellIdentifier)

    -- Reloading any module during live development refreshes the whole collection.
    self:addMessageHandler("system.did_load_module", "refreshView")

    self:configureView()
end

-- The text, as a property: getResource calls its setter with the file's content now and
-- again whenever the file changes, and the collection shows the new words at once.
CollectionController.wordsText = property {
    set = function(self, text)
        local words = {}
        for word in text:gmatch("[%w']+") do
            words[#words + 1] = word
        end
        self.words = words
        local collectionView = self.collectionView
        if collectionView ~= nil then
            collectionView:reloadData()
        end
    end,
}

function CollectionController:configureView()
    local collectionView = self.collectionView
    collectionView.backgroundColor = objc.UIColor.whiteColor

    if self.pinchRecognizer == nil then
        local recognizer = objc.UIPinchGestureRecognizer:newWithTarget_action(self, "handlePinch")
        collectionView:addGestureRecognizer(recognizer)
        self.pinchRecognizer = recognizer
    end

    if self.words == nil then
        getResource("words", "txt", self, "wordsText")
    end
end

function CollectionController:refreshView()
    local collectionView = self.collectionView
    if collectionView ~= nil then
        self:configureView()
        collectionView:reloadData()
        collectionView.collectionViewLayout:invalidateLayout()
    end
end

-- Data source: one item per word.

-- UIKit calls delegate methods with every argument, used or not.
-- luacheck: push no unused args
function CollectionController:collectionView_numberOfItemsInSection(collectionView, section)
    return self.words and #self.words or 0
end
-- luacheck: pop

function CollectionController:collectionView_cellForItemAtIndexPath(collectionView, indexPath)
    local cell = collectionView:dequeueReusableCellWithReuseIdentifier_forIndexPath(cellIdentifier, indexPath)
    local index = indexPath.item + 1
    cell:showWord(self.words[index], index, #self.words)
    return cell
end

-- Flow layout delegate: each cell is as wide as its word in the cell's font, plus padding.

-- luacheck: push ignore 212
function CollectionController:collectionView_layout_sizeForItemAtIndexPath(collectionView, layout, indexPath)
    local word = self.words and self.words[indexPath.item + 1]
    if word == nil then
        return { width = cellHeight, height = cellHeight }
    end
    local textWidth = LabelCell:widthOfWord(word)
    return { width = math.ceil(textWidth) + cellPadding, height = cellHeight }
end
-- luacheck: pop

CollectionController:publishObjcProtocols("UICollectionViewDelegateFlowLayout")

-- Pinch: the layout zooms the pinched cell and keeps it under the fingers.

function CollectionController:handlePinch(recognizer)
    local collectionView = self.collectionView
    local layout = collectionView.collectionViewLayout
    local state = recognizer.state

    if state == UiGestureRecognizer.State.Began then
        local point = recognizer:locationInView(collectionView)
        layout.pinchedIndexPath = collectionView:indexPathForItemAtPoint(point)
    elseif state == UiGestureRecognizer.State.Changed then
        layout.pinchScale = recognizer.scale
        if recognizer.numberOfTouches > 1 then
            layout.pinchCenter = recognizer:locationInView(collectionView)
        end
    else
        -- The cell goes back to its place, animated, and only then stops being "pinched".
        collectionView:performBatchUpdates_completion(
            function()
                layout.pinchScale = 1
                layout.pinchCenter = nil
            end,
            function(finished) -- luacheck: ignore 212/finished
                layout.pinchedIndexPath = nil
            end)
    end
end

CollectionController:publishActionMethod("handlePinch")

return CollectionController
